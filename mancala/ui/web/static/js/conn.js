// One WebSocket to the game server, speaking protocol version 1 (docs/protocol.md).

/** A connection: `send(type, fields)` returns the request id; every message goes to `onMessage`. */
export class Connection {
  constructor(onMessage, onClose) {
    this.onMessage = onMessage;
    this.onClose = onClose;
    this.nextId = 0;
    this.queue = [];
    this.open = false;
    const proto = location.protocol === "https:" ? "wss:" : "ws:";
    this.ws = new WebSocket(`${proto}//${location.host}/ws`);
    this.ws.addEventListener("open", () => {
      this.open = true;
      for (const text of this.queue) this.ws.send(text);
      this.queue = [];
    });
    this.ws.addEventListener("message", (event) => {
      let msg;
      try { msg = JSON.parse(event.data); } catch { return; }
      this.onMessage(msg);
    });
    this.ws.addEventListener("close", (event) => { this.open = false; this.onClose(event); });
  }

  /** Send one message; returns its id (answers echo it). */
  send(type, fields = {}) {
    this.nextId += 1;
    const text = JSON.stringify({ v: 1, type, id: this.nextId, ...fields });
    if (this.open) this.ws.send(text);
    else this.queue.push(text);
    return this.nextId;
  }
}
