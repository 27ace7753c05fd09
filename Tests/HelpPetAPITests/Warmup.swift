import Testing
import VaporTesting
@Test func warm() {}
