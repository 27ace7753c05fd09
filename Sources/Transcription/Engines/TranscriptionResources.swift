import Foundation

/// Files shipped with the module: the Whisper helper script and the medication lexicon.
public enum TranscriptionResources {
    public static var whisperScript: URL {
        Bundle.module.url(forResource: "whisper_transcribe", withExtension: "py")
            ?? URL(fileURLWithPath: "Sources/Transcription/Resources/whisper_transcribe.py")
    }

    public static var medicationLexicon: URL? {
        Bundle.module.url(forResource: "medications", withExtension: "txt")
    }
}
