// The table view's live log: the server-sent events of /tables/<id>/events read through fetch() (they take the
// member's key as an Authorization header, which EventSource cannot send), resumed after the last step received
// (?after=N and Last-Event-ID) on every drop, going offline and back, or a stream silent too long.
"use strict";

import { pageLanguage } from "./common.js";

export class Live {
  constructor(id, key, onStep, onStatus) {
    Object.assign(this, { id, key, onStep, onStatus });
    this.last = 0;          // the number of the last step received
    this.retry = 1000;      // the server's "retry:" (ms)
    this.stopped = false;
    this.controller = null;
    this.wake = null;
    this.heard = Date.now();
    this.onOffline = () => this.drop();
    this.onOnline = () => this.drop();
    window.addEventListener("offline", this.onOffline);
    window.addEventListener("online", this.onOnline);
    // the server sends a comment every 15 s: a stream silent for 40 s is a dead one
    this.watch = setInterval(() => { if (Date.now() - this.heard > 40000) this.drop(); }, 5000);
  }
  start(after) { this.last = after; this.run(); }
  stop() {
    this.stopped = true;
    clearInterval(this.watch);
    window.removeEventListener("offline", this.onOffline);
    window.removeEventListener("online", this.onOnline);
    this.drop();
  }
  // end the current connection (the loop reconnects unless stopped) and cut any wait short
  drop() {
    if (this.controller) this.controller.abort();
    if (this.wake) this.wake();
  }
  pause(ms) { return new Promise((resolve) => { const timer = setTimeout(resolve, ms); this.wake = () => { clearTimeout(timer); resolve(); }; }); }
  async run() {
    while (!this.stopped) {
      if (navigator.onLine === false) { this.onStatus("offline"); await this.pause(this.retry); continue; }
      this.controller = new AbortController();
      try {
        const response = await fetch(`/tables/${encodeURIComponent(this.id)}/events?after=${this.last}`, {
          headers: { Authorization: `Bearer ${this.key}`, Accept: "text/event-stream", "Last-Event-ID": String(this.last),
                     "Accept-Language": pageLanguage() },
          cache: "no-store", signal: this.controller.signal });
        if (response.status === 401 || response.status === 404) { this.onStatus("refused", response.status); return; }
        if (!response.ok || !response.body) throw new Error(String(response.status));
        this.onStatus("live");
        this.heard = Date.now();
        const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
        let buffer = "";
        for (;;) {
          const { value, done } = await reader.read();
          if (done) break;
          this.heard = Date.now();
          buffer += value.replace(/\r\n?/g, "\n");
          let end;
          while ((end = buffer.indexOf("\n\n")) >= 0) {
            this.event(buffer.slice(0, end));
            buffer = buffer.slice(end + 2);
          }
        }
      } catch (e) {
        // aborted (offline, silent, stopped) or the network failed: reconnect below
      }
      this.controller = null;
      if (this.stopped) return;
      this.onStatus("reconnecting");
      await this.pause(this.retry);
    }
  }
  event(block) {
    let kind = "message", data = "", id = null;
    for (const line of block.split("\n")) {
      if (!line || line.startsWith(":")) continue;
      const colon = line.indexOf(":");
      const field = colon < 0 ? line : line.slice(0, colon);
      const value = colon < 0 ? "" : line.slice(colon + 1).replace(/^ /, "");
      if (field === "event") kind = value;
      else if (field === "data") data += (data ? "\n" : "") + value;
      else if (field === "id") id = value;
      else if (field === "retry" && /^\d+$/.test(value)) this.retry = Math.max(250, parseInt(value, 10));
    }
    if (kind !== "step" || !data) return;
    const step = JSON.parse(data);
    if (step.seq <= this.last) return;  // already seen (a reconnect never doubles a step)
    this.last = step.seq;
    if (id !== null && /^\d+$/.test(id)) this.last = Math.max(this.last, parseInt(id, 10));
    this.onStep(step);
  }
}
