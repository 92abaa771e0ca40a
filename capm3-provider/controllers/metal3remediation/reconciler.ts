import type { ReconcileContext, Reconciler, Request, Result } from '../../../operator/runtime/index.ts';
import { isConflict, removeFinalizer } from '../../../operator/runtime/index.ts';
import { METAL3_REMEDIATION_FINALIZER, metal3RemediationSchema } from '../../api/index.ts';
import { nextRemediationStep } from '../../remediation/index.ts';
import { loadScope } from './remediation-context.ts';
import type { RemediationDeps } from './remediation-context.ts';
import { runStep } from './steps.ts';

/**
 * The Metal3Remediation reconciler: loads the Machine, host and Node, asks the Reboot strategy
 * for the next step and carries it out.
 */
export class Metal3RemediationReconciler implements Reconciler {
  readonly #deps: RemediationDeps;

  constructor(deps: RemediationDeps) {
    this.#deps = deps;
  }

  async reconcile(request: Request, context: ReconcileContext): Promise<Result> {
    const cached = this.#deps.remediations.cache.get(request);
    if (!cached) return {};
    const remediation = metal3RemediationSchema.parse(cached);
    const loaded = await loadScope(remediation, this.#deps, context);
    if (loaded.kind === 'waiting') {
      context.log.info('waiting for the workload cluster', { why: loaded.why });
      return { requeueAfter: this.#deps.pollMs };
    }
    if (loaded.kind === 'missing') {
      if (remediation.metadata.deletionTimestamp) {
        // Nothing left to put back (the Machine or host went with it).
        await removeFinalizer(this.#deps.remediations.client, remediation, METAL3_REMEDIATION_FINALIZER, { signal: context.signal });
        return {};
      }
      context.log.info('cannot remediate yet', { why: loaded.what });
      this.#deps.events.event(remediation, { type: 'Warning', reason: 'RemediationTargetMissing', action: 'Remediate', note: loaded.what });
      return { requeueAfter: this.#deps.pollMs * 15 };
    }
    const step = nextRemediationStep(loaded.scope.facts);
    loaded.scope.log.debug('remediation step', { step: step.action, phase: remediation.status?.phase });
    try {
      return await runStep(step, loaded.scope, this.#deps);
    } catch (error) {
      if (!isConflict(error)) throw error;
      context.log.debug('conflict writing an object; requeueing', { error: (error as Error).message });
      return { requeue: true };
    }
  }
}
