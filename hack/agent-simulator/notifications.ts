import { z } from 'zod';

/** The system dict sushy-tools' fake driver PUTs to EXTERNAL_NOTIFICATION_URL on every change. */
export const sushySystemSchema = z
  .object({
    uuid: z.string().min(1),
    name: z.string().optional(),
    power_state: z.string(),
    boot_device: z.string().optional(),
    pending_power: z
      .object({ power_state: z.string(), apply_time: z.number() })
      .nullable()
      .optional(),
  })
  .loose();

export type SushySystem = z.infer<typeof sushySystemSchema>;

/** What a notification means for the physical server. */
export type PowerEvent =
  | { kind: 'power-on-pending'; applyTime: number }
  /** sushy drops power at once on a restart and brings it back at applyTime. */
  | { kind: 'restart-pending'; applyTime: number }
  | { kind: 'power-off-pending'; applyTime: number }
  | { kind: 'is-on' }
  | { kind: 'is-off' };

export function powerEventOf(system: SushySystem): PowerEvent {
  const pending = system.pending_power;
  if (pending !== null && pending !== undefined) {
    if (pending.power_state.includes('Restart')) return { kind: 'restart-pending', applyTime: pending.apply_time };
    if (pending.power_state === 'On') return { kind: 'power-on-pending', applyTime: pending.apply_time };
    return { kind: 'power-off-pending', applyTime: pending.apply_time };
  }
  return system.power_state === 'On' ? { kind: 'is-on' } : { kind: 'is-off' };
}

/** Boot targets that start an OS from the local disk rather than a (network or virtual media) ramdisk. */
export function bootsIntoDisk(bootDevice: string | undefined): boolean {
  return bootDevice === undefined || bootDevice === 'Hdd' || bootDevice === 'None';
}
