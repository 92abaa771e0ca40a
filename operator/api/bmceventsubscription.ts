import { z } from 'zod';
import type { KubeObject, ResourceType } from '../runtime/kube-object.ts';
import { METAL3_GROUP, METAL3_VERSION } from './group-version.ts';
import { objectMetaSchema } from './object-meta.ts';
import { secretReferenceSchema } from './secret-reference.ts';

/** BMO's BMCEventSubscription: a Redfish event subscription on the BMC of a BareMetalHost. */
export const BMCEventSubscriptionResource = {
  group: METAL3_GROUP,
  version: METAL3_VERSION,
  kind: 'BMCEventSubscription',
  plural: 'bmceventsubscriptions',
  namespaced: true,
} as const satisfies ResourceType;

export const bmcEventSubscriptionSpecSchema = z.object({
  hostName: z.string().optional().describe('The BareMetalHost, in the same namespace, whose BMC sends the events.'),
  destination: z.string().optional().describe('The webhook URL the BMC posts events to.'),
  context: z.string().optional().describe('Arbitrary user-provided context sent with every event.'),
  httpHeadersRef: secretReferenceSchema
    .optional()
    .describe('A Secret in the same namespace whose keys and values are HTTP headers the BMC sends with each event.'),
});

export const bmcEventSubscriptionStatusSchema = z.object({
  subscriptionID: z.string().optional().describe('The subscription\'s Id on the BMC.'),
  error: z.string().optional().describe('The most recent error message.'),
});

export const bmcEventSubscriptionSchema = z.looseObject({
  apiVersion: z.string().optional(),
  kind: z.string().optional(),
  metadata: objectMetaSchema,
  spec: bmcEventSubscriptionSpecSchema.optional().default({}),
  status: bmcEventSubscriptionStatusSchema.optional(),
});

export type BMCEventSubscriptionSpec = z.output<typeof bmcEventSubscriptionSpecSchema>;
export type BMCEventSubscriptionStatus = z.output<typeof bmcEventSubscriptionStatusSchema>;
export type BMCEventSubscription = z.output<typeof bmcEventSubscriptionSchema>;

const _isKubeObject = (subscription: BMCEventSubscription): KubeObject => subscription;
