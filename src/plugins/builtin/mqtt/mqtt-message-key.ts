// The stable key of an MQTT message (docs/brokers.md, "Message ids"). MQTT has no broker id of a
// message: the packet id is per connection and is reused once acknowledged. The key is the id
// the publisher set in a user property (MQTT_PUBLISH sets it), else a hash of topic and payload,
// so a message sent again after a crash gets the same message id in any run of the workflow.
import { createHash } from 'node:crypto';
import type { IPublishPacket } from 'mqtt';
import { ID_PROPERTY } from './mqtt-connection.js';

export function deliveryKey(
  packet: Pick<IPublishPacket, 'topic' | 'payload' | 'properties'>,
  idProperty: string = ID_PROPERTY,
): string {
  const given = packet.properties?.userProperties?.[idProperty];
  const id = Array.isArray(given) ? given[0] : given;
  if (id !== undefined && id !== '') return `id:${id}`;
  // Two messages with the same payload on the same topic share the key: a publisher that
  // means them as distinct sets the id property.
  const hash = createHash('sha256').update(packet.topic).update('\0').update(packet.payload);
  return `sha256:${hash.digest('hex').slice(0, 32)}`;
}
