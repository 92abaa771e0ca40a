import type { Condition } from '../../../operator/runtime/index.ts';
import type { Metal3MachineStatus } from '../../api/index.ts';
import { StatusDraft } from '../status-draft.ts';

/** Conditions (v1beta2 names) the Ready summary is made of, in the order a user should fix them. */
export const READY_INPUTS = ['Paused', 'AssociateBareMetalHost', 'Metal3DataReady', 'HostProvisioned'] as const;

/** A Metal3Machine's status draft, with the Ready summary CAPM3 computes. */
export class MachineStatus extends StatusDraft<Metal3MachineStatus> {
  /** Ready: True once provisioned, else False with the reason of the first blocking condition. */
  summarize(): void {
    const conditions = (this.next.conditions ?? []) as Condition[];
    if (this.next.initialization?.provisioned) {
      this.condition({ type: 'Ready', status: 'True', reason: 'Ready', message: '' });
      return;
    }
    const paused = conditions.find((c) => c.type === 'Paused' && c.status === 'True');
    const blocking = paused ?? conditions.find((c) => (READY_INPUTS as readonly string[]).includes(c.type) && c.type !== 'Paused' && c.status !== 'True');
    this.condition({
      type: 'Ready', status: 'False',
      reason: blocking?.reason ?? 'NotReady',
      message: blocking?.message ?? 'waiting for the host to be provisioned',
    });
  }
}
