import { BMCEventSubscriptionResource, bmcEventSubscriptionSpecSchema, bmcEventSubscriptionStatusSchema } from '../bmceventsubscription.ts';
import type { CrdSource } from './custom-resource-definition.ts';

/** BMO's BMCEventSubscription, with BMO's short names and columns plus the host, destination and BMC Id. */
export const bmcEventSubscriptionCrdSource: CrdSource = {
  group: BMCEventSubscriptionResource.group,
  version: BMCEventSubscriptionResource.version,
  kind: BMCEventSubscriptionResource.kind,
  listKind: 'BMCEventSubscriptionList',
  plural: BMCEventSubscriptionResource.plural,
  singular: 'bmceventsubscription',
  shortNames: ['bes', 'bmcevent'],
  scope: 'Namespaced',
  description: 'A Redfish event subscription on the BMC of a BareMetalHost, made through Ironic.',
  spec: bmcEventSubscriptionSpecSchema,
  specDescription: 'Where the BMC of which host sends its events, and with what. Immutable.',
  status: bmcEventSubscriptionStatusSchema,
  statusDescription: 'The subscription on the BMC, or why there is none.',
  printerColumns: [
    { name: 'Host', type: 'string', jsonPath: '.spec.hostName', description: 'The BareMetalHost whose BMC sends the events' },
    { name: 'Destination', type: 'string', jsonPath: '.spec.destination', description: 'Where the events go', priority: 1 },
    { name: 'Subscription', type: 'string', jsonPath: '.status.subscriptionID', description: 'The subscription\'s Id on the BMC' },
    { name: 'Error', type: 'string', jsonPath: '.status.error', description: 'The most recent error message' },
    { name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp', description: 'Time duration since creation of BMCEventSubscription' },
  ],
};
