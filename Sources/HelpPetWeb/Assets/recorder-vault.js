// The recorder's vault: every recording lives in IndexedDB from its first second until `complete` succeeded, so a
// closed tab, a crash or a dead network never loses it. Chunks are stored as ArrayBuffers (Safari long refused
// Blobs in IndexedDB), one row per MediaRecorder chunk, keyed [recordingId, seq] so they read back in order.
const DB_NAME = "helppet-recorder";
const DB_VERSION = 1;

function request(req) {
  return new Promise((resolve, reject) => {
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error);
  });
}

function done(tx) {
  return new Promise((resolve, reject) => {
    tx.oncomplete = () => resolve();
    tx.onerror = () => reject(tx.error);
    tx.onabort = () => reject(tx.error ?? new Error("IndexedDB transaction aborted"));
  });
}

export class Vault {
  constructor(db) { this.db = db; }

  static async open() {
    if (!("indexedDB" in window)) throw new Error("This browser has no IndexedDB");
    const open = indexedDB.open(DB_NAME, DB_VERSION);
    open.onupgradeneeded = () => {
      const db = open.result;
      if (!db.objectStoreNames.contains("recordings")) db.createObjectStore("recordings", { keyPath: "id" });
      if (!db.objectStoreNames.contains("chunks")) db.createObjectStore("chunks", { keyPath: ["recordingId", "seq"] });
    };
    return new Vault(await request(open));
  }

  async put(recording) {
    const tx = this.db.transaction("recordings", "readwrite");
    tx.objectStore("recordings").put(recording);
    await done(tx);
  }

  async get(id) {
    return request(this.db.transaction("recordings").objectStore("recordings").get(id));
  }

  async all() {
    return request(this.db.transaction("recordings").objectStore("recordings").getAll());
  }

  /** One chunk and the recording's new length in one transaction: what is on disk always matches its row. */
  async addChunk(recording, seq, blob) {
    const bytes = await blob.arrayBuffer();
    const tx = this.db.transaction(["chunks", "recordings"], "readwrite");
    tx.objectStore("chunks").put({ recordingId: recording.id, seq, bytes });
    tx.objectStore("recordings").put(recording);
    await done(tx);
  }

  /** The recording as one Blob, chunks in order (the bytes MediaRecorder produced, unchanged). */
  async blob(recording) {
    const range = IDBKeyRange.bound([recording.id, 0], [recording.id, Number.MAX_SAFE_INTEGER]);
    const rows = await request(this.db.transaction("chunks").objectStore("chunks").getAll(range));
    rows.sort((a, b) => a.seq - b.seq);
    return new Blob(rows.map((row) => row.bytes), { type: recording.contentType });
  }

  /** Only after `complete` succeeded (or the vet discarded it on purpose). */
  async remove(id) {
    const tx = this.db.transaction(["chunks", "recordings"], "readwrite");
    tx.objectStore("chunks").delete(IDBKeyRange.bound([id, 0], [id, Number.MAX_SAFE_INTEGER]));
    tx.objectStore("recordings").delete(id);
    await done(tx);
  }
}
