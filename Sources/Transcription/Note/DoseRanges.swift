import Foundation

/// Usual oral/injectable doses of common veterinary drugs in mg per kg of body weight (dogs and cats, from the
/// standard formularies; the widest usual range of either species). Only for flagging: a dose far outside the range
/// is shown to the vet, never changed.
enum DoseRanges {
    static let mgPerKg: [String: ClosedRange<Double>] = [
        "amoxicillin": 10...22, "amoxicillin-clavulanate": 12.5...25, "cephalexin": 15...30, "cefpodoxime": 5...10,
        "clindamycin": 5.5...33, "doxycycline": 5...10, "enrofloxacin": 5...20, "metronidazole": 10...25,
        "marbofloxacin": 2...5.5, "azithromycin": 5...10, "meloxicam": 0.05...0.2, "carprofen": 2...4.4,
        "robenacoxib": 1...2, "grapiprant": 2...2, "gabapentin": 5...20, "tramadol": 2...5,
        "buprenorphine": 0.01...0.03, "prednisolone": 0.5...2, "prednisone": 0.5...2, "dexamethasone": 0.05...0.5,
        "oclacitinib": 0.4...0.6, "famotidine": 0.5...1, "omeprazole": 0.5...1.5, "maropitant": 1...2,
        "ondansetron": 0.1...1, "metoclopramide": 0.2...0.5, "furosemide": 1...4, "pimobendan": 0.2...0.3,
        "enalapril": 0.25...0.5, "benazepril": 0.25...0.5, "trazodone": 2...10, "phenobarbital": 2...5,
        "levetiracetam": 20...30, "diphenhydramine": 1...4, "fenbendazole": 50...50, "acepromazine": 0.01...0.05,
    ]

    /// How far outside the usual range counts as "far": a factor of two either way. Everyday dose rounding to
    /// whole tablets stays inside it; a slip of a decimal point (the dangerous error) never does.
    static let tolerance = 2.0

    /// The mg/kg a dose amounts to, when it can be computed: a dose in mg/kg as said, a dose in mg divided by the
    /// pet's weight. Doses in ml or tablets depend on the product's strength and are not checked.
    static func mgPerKg(dose: Double, unit: String?, weightKg: Double?) -> Double? {
        switch unit {
        case "mg/kg": return dose
        case "mg": return weightKg.flatMap { $0 > 0 ? dose / $0 : nil }
        case "mcg": return weightKg.flatMap { $0 > 0 ? dose / 1000 / $0 : nil }
        case "g": return weightKg.flatMap { $0 > 0 ? dose * 1000 / $0 : nil }
        default: return nil
        }
    }

    /// The drug's usual range when `perKg` is far outside it, else nil.
    static func farOutside(_ drug: String, perKg: Double) -> ClosedRange<Double>? {
        guard let usual = mgPerKg[drug] else { return nil }
        return perKg < usual.lowerBound / tolerance || perKg > usual.upperBound * tolerance ? usual : nil
    }
}
