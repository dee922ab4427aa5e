// A room's event stream — its snapshots, or its session's diagram — that outlives the room's cookie.
// An EventSource cannot send the room's key, so it shows the cookie `POST /api/rooms/{rid}/cookie`
// sets, which lasts as long as an idle room does (each keyed stream sets it again). A stream
// connected longer than that reconnects without it: the server answers 401, and any answer but 200
// closes an EventSource for good. This one then sets the cookie again with the key and opens a new
// stream from the last event it had, after 1 s, 2 s, 4 s… (30 s at most); when the key opens
// nothing more (403: taken out of the room; 404: the room has ended) it stops and says why.
import { APIError, roomCookie } from "../lib/api.js";

/** The wait before a closed stream is opened again, doubled each time it does not open, up to the longest. */
const FIRST_WAIT_MS = 1000;
const LONGEST_WAIT_MS = 30_000;

/** Whether a refusal means the key opens the room no more (403, 404): waiting cannot help. */
export const isGone = (error) => error instanceof APIError && (error.status === 403 || error.status === 404);

/**
 * What `role` (teacher, student or audience) is told when the room's key opens it no more (`error`: the
 * server's refusal, 403 or 404).
 */
export function goneWords(error, role) {
  if (error.status === 404) return "The room has ended, so there is nothing more to follow. Thank you for taking part!";
  if (role === "audience") return `This browser's audience key does not open the room: ${error.message}`;
  return role === "teacher"
    ? `This browser's teacher key does not open the room: ${error.message}`
    : `You are no longer in the room: the teacher took you out of it. ${error.message}`;
}

export class RoomStream {
  /**
   * A stream of `room` (`{id, key, role}`) at `address(lastEventId)`: the route's address resuming
   * after that event (null before any). `onState(state, detail)` hears `live`, `reconnecting`
   * (detail: the milliseconds until the next try, 0 while the browser retries by itself) and
   * `gone` (detail: the cookie's refusal, an APIError, for `goneWords`; the stream is closed). Call `start`.
   */
  constructor(room, address, onState) {
    Object.assign(this, { room, address, onState });
    this.listeners = [];
    this.source = null;
    this.lastEventId = null;
    this.wait = FIRST_WAIT_MS;
    this.timer = null;
    this.closed = false;
  }

  /** As EventSource's: `handler` hears each event `name` of this stream and of those that replace it. */
  addEventListener(name, handler) {
    const listener = (message) => {
      if (message.lastEventId) this.lastEventId = message.lastEventId;
      handler(message);
    };
    this.listeners.push([name, listener]);
    this.source?.addEventListener(name, listener);
  }

  /** Sets the cookie with the key, then opens the stream. */
  async start() {
    this.timer = null;
    try {
      await roomCookie(this.room.id, this.room.key);
    } catch (error) {
      if (this.closed) return;
      if (isGone(error)) {
        this.close();
        this.onState("gone", error);
      } else {
        this.retry(); // the server busy or out of reach: later
      }
      return;
    }
    if (!this.closed) this.open();
  }

  open() {
    const source = new EventSource(this.address(this.lastEventId));
    this.source = source;
    for (const [name, listener] of this.listeners) source.addEventListener(name, listener);
    source.onopen = () => {
      this.wait = FIRST_WAIT_MS;
      this.onState("live");
    };
    source.onerror = () => {
      if (this.source !== source) return;
      if (source.readyState === EventSource.CONNECTING) {
        this.onState("reconnecting", 0); // the connection dropped: the browser tries again itself
        return;
      }
      // Closed for good: a 401 once the cookie is gone (or any other answer but 200).
      source.close();
      this.source = null;
      this.retry();
    };
  }

  retry() {
    const wait = this.wait;
    this.wait = Math.min(this.wait * 2, LONGEST_WAIT_MS);
    this.onState("reconnecting", wait);
    this.timer = setTimeout(() => this.start(), wait);
  }

  close() {
    this.closed = true;
    clearTimeout(this.timer);
    this.source?.close();
    this.source = null;
  }
}
