import AppCore
import Foundation

/// `age_years` of a pet: whole years between its birth day and today, counted in the practice's zone, so a pet
/// turns one on its birthday in the clinic's calendar (a 29 February birthday counts on 1 March in other years).
enum PetAge {
    static func wholeYears(born: CalendarDay, today: CalendarDay) -> Int {
        var years = today.year - born.year
        if (today.month, today.day) < (born.month, born.day) { years -= 1 }
        return max(0, years)
    }
}
