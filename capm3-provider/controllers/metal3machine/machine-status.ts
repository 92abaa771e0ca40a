import type { Condition } from '../../../operator/runtime/index.ts';
import type { Metal3MachineStatus } from '../../api/index.ts';
import { StatusDraft } from '../status-draft.ts';
import { setV1beta1Condition, setV1beta1Summary } from '../v1beta1-conditions.ts';
import type { V1beta1Condition, V1beta1ConditionInput, V1beta1Severity } from '../v1beta1-conditions.ts';

/** Conditions (v1beta2 names) the Ready summary is made of, in the order a user should fix them. */
export const READY_INPUTS = ['Paused', 'AssociateBareMetalHost', 'Metal3DataReady', 'HostProvisioned'] as const;

/** CAPM3's v1beta1 conditions, which its Ready summarises in this order. */
const V1BETA1_SUMMARY = ['AssociateBMH', 'Metal3DataReady', 'KubernetesNodeReady'] as const;

/** CAPM3's v1beta1 reason (and severity) for a v1beta2 AssociateBareMetalHost reason; others keep theirs, as Info. */
const ASSOCIATE_BMH_REASONS: Record<string, { reason: string; severity: V1beta1Severity }> = {
  WaitingForMetal3MachineOwnerRef: { reason: 'WaitingForM3MachineOwnerRef', severity: 'Info' },
  WaitingForClusterInfrastructureReady: { reason: 'WaitingForClusterInfrastructure', severity: 'Info' },
  WaitingforMetal3Cluster: { reason: 'WaitingforMetal3Cluster', severity: 'Info' },
  WaitingForBootstrapData: { reason: 'WaitingForBootstrapReady', severity: 'Info' },
  AssociateBareMetalHostFailed: { reason: 'AssociateBMHFailed', severity: 'Error' },
};

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

  /**
   * CAPM3's deprecated v1beta1 conditions, which v1beta1 readers see as `status.conditions`:
   * AssociateBMH, Metal3DataReady and KubernetesNodeReady with CAPM3's reasons and severities,
   * derived from this pass's v1beta2 conditions, and their Ready summary.
   */
  legacyConditions(options: { deleting: boolean }): void {
    const current = (this.next.conditions ?? []) as Condition[];
    const find = (type: string) => current.find((condition) => condition.type === type);
    const now = new Date(this.now());
    let legacy: V1beta1Condition[] | undefined = this.next.deprecated?.v1beta1?.conditions;
    const set = (input: V1beta1ConditionInput) => (legacy = setV1beta1Condition(legacy, input, now));
    const drop = (type: string) => (legacy = legacy?.filter((condition) => condition.type !== type));

    const associated = find('AssociateBareMetalHost');
    if (find('Paused')?.status === 'True') set({ type: 'AssociateBMH', status: 'False', reason: 'Metal3MachinePaused', severity: 'Info' });
    else if (associated?.status === 'True') set({ type: 'AssociateBMH', status: 'True' });
    else if (associated) {
      const mapped = ASSOCIATE_BMH_REASONS[associated.reason] ?? { reason: associated.reason, severity: 'Info' };
      set({ type: 'AssociateBMH', status: 'False', ...mapped, message: associated.message });
    }
    const data = find('Metal3DataReady');
    if (data?.status === 'True') set({ type: 'Metal3DataReady', status: 'True' });
    else if (data) set({ type: 'Metal3DataReady', status: 'False', reason: 'WaitingForMetal3Data', severity: 'Info', message: data.message });
    const metadata = find('AssociateMetal3MachineMetaData');
    if (options.deleting) set({ type: 'KubernetesNodeReady', status: 'False', reason: 'Deleting', severity: 'Info' });
    else if (metadata && metadata.status !== 'True') {
      set({ type: 'KubernetesNodeReady', status: 'False', reason: 'AssociateM3MetaDataFailed', severity: 'Warning', message: metadata.message });
    } else drop('KubernetesNodeReady'); // CAPM3 never sets it True; a failure that passed no longer blocks Ready.
    legacy = setV1beta1Summary(legacy, V1BETA1_SUMMARY, now);
    if (!legacy?.length) return;
    this.next.deprecated = { ...this.next.deprecated, v1beta1: { ...this.next.deprecated?.v1beta1, conditions: legacy } };
  }
}
