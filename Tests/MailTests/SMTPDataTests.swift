import Testing

@testable import Mail

@Suite struct SMTPDataTests {
    @Test func aLineStartingWithADotGetsASecondDot() {
        #expect(SMTPData.encode("a\r\n.hidden\r\n..two\r\n") == "a\r\n..hidden\r\n...two\r\n.\r\n")
    }

    @Test func aLoneDotLineCannotEndTheDataEarly() {
        #expect(SMTPData.encode("before\r\n.\r\nafter") == "before\r\n..\r\nafter\r\n.\r\n")
    }

    @Test func bareLineFeedsAndCarriageReturnsBecomeCRLF() {
        #expect(SMTPData.encode("one\ntwo\rthree") == "one\r\ntwo\r\nthree\r\n.\r\n")
    }

    @Test func aDotInsideALineIsLeftAlone() {
        #expect(SMTPData.encode("a.b\r\n") == "a.b\r\n.\r\n")
    }
}
