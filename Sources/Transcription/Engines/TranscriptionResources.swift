import Foundation

/// Files shipped with the module: the Whisper helper script, the medication lexicon and the veterinary terms.
public enum TranscriptionResources {
    public static var whisperScript: URL {
        Bundle.module.url(forResource: "whisper_transcribe", withExtension: "py")
            ?? URL(fileURLWithPath: "Sources/Transcription/Resources/whisper_transcribe.py")
    }

    public static var medicationLexicon: URL? {
        Bundle.module.url(forResource: "medications", withExtension: "txt")
    }

    public static var veterinaryTerms: URL? {
        Bundle.module.url(forResource: "veterinary_terms", withExtension: "txt")
    }
}
