// Every file of this target uses the shared test plumbing (TestDatabase, JSONNode, DatabaseTestLedger, AsyncGate).
@_exported import ServerTestSupport
