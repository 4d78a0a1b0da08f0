// The messages an MQTT session holds unacknowledged, by packet id. A packet id names a message
// only while it is unacknowledged on its session; after a reconnect the broker sends those
// messages again with the same ids. So: a message sent again while the run still works on it is
// taken over rather than emitted twice; an acknowledgement due while the connection was down is
// sent when the broker sends the message again; a message left unacknowledged on purpose is
// emitted anew when it comes back.
import type { IPublishPacket } from 'mqtt';

export interface Delivery {
  readonly packet: IPublishPacket;
  /** The connection it will be acknowledged on: the one it last arrived on. */
  generation: number;
  /** `released`: left unacknowledged for the broker to send again. */
  state: 'held' | 'released';
}

export type Received =
  | { readonly kind: 'emit'; readonly delivery: Delivery }
  | { readonly kind: 'ack' }
  | { readonly kind: 'taken-over' };

export class Deliveries {
  #generation = 0;
  readonly #held = new Map<number, Delivery>();
  /** Settled while disconnected: acknowledged when the broker sends them again. */
  readonly #unsent = new Set<number>();

  /** Messages unacknowledged at the broker (held by the run, or released). */
  get size(): number {
    return this.#held.size;
  }

  /** Messages the run works on: held and not yet settled. */
  get unsettled(): number {
    let count = 0;
    for (const delivery of this.#held.values()) if (delivery.state === 'held') count++;
    return count;
  }

  /** A new connection; without its session, the broker forgot what was unacknowledged. */
  connected(sessionPresent: boolean): void {
    this.#generation++;
    if (!sessionPresent) {
      this.#held.clear();
      this.#unsent.clear();
    }
  }

  /** A message arrived: what to do with it. */
  receive(packet: IPublishPacket): Received {
    const id = packet.messageId ?? 0;
    if (this.#unsent.delete(id)) return { kind: 'ack' };
    const known = this.#held.get(id);
    if (known?.state === 'held') {
      known.generation = this.#generation;
      return { kind: 'taken-over' };
    }
    const delivery: Delivery = { packet, generation: this.#generation, state: 'held' };
    this.#held.set(id, delivery);
    return { kind: 'emit', delivery };
  }

  /** Whether the delivery is still the one its packet id names, unsettled. */
  holds(delivery: Delivery): boolean {
    return this.#held.get(delivery.packet.messageId ?? 0) === delivery && delivery.state === 'held';
  }

  /**
   * The delivery is to be acknowledged: answers whether to send it now, on the connection it
   * arrived on. Otherwise it is sent when the broker sends the message again.
   */
  acknowledge(delivery: Delivery, connected: boolean): boolean {
    const id = delivery.packet.messageId ?? 0;
    this.#held.delete(id);
    if (connected && delivery.generation === this.#generation) return true;
    this.#unsent.add(id);
    return false;
  }

  /** Left unacknowledged: the broker sends it again on the session's next connection. */
  release(delivery: Delivery): void {
    delivery.state = 'released';
  }
}
