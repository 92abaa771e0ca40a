/** A label selector as CAPM3's and BMO's host selectors write it: the operators are Kubernetes' selection operators, any case. */
export interface LabelSelectorInput {
  matchLabels?: Readonly<Record<string, string>> | undefined;
  matchExpressions?: readonly { key: string; operator: string; values?: readonly string[] | undefined }[] | undefined;
}

/** One requirement on a host's labels, checked in memory. */
type Requirement = (labels: Readonly<Record<string, string>>) => boolean;

export interface CompiledLabelSelector {
  matches(labels: Readonly<Record<string, string>> | undefined): boolean;
  /** Human-readable, e.g. `role=worker, hardware.metal3.io/cpu-count gt 8`, for conditions. */
  description: string;
}

export class LabelSelectorError extends Error {}

const INTEGER = /^-?\d+$/;

/** The host's own label only: `key in labels` would also find toString or __proto__ on every object. */
function has(labels: Readonly<Record<string, string>>, key: string): boolean {
  return Object.hasOwn(labels, key);
}

function requirement(key: string, operator: string, values: readonly string[]): Requirement {
  const op = operator.toLowerCase();
  const one = (what: string): string => {
    if (values.length !== 1) throw new LabelSelectorError(`${key} ${operator}: ${what} takes exactly one value, got ${values.length}`);
    return values[0] as string;
  };
  switch (op) {
    case 'in':
    case 'notin': {
      if (values.length === 0) throw new LabelSelectorError(`${key} ${operator}: needs at least one value`);
      const set = new Set(values);
      return op === 'in' ? (labels) => has(labels, key) && set.has(labels[key] as string) : (labels) => !has(labels, key) || !set.has(labels[key] as string);
    }
    case '=':
    case '==': {
      const value = one(op);
      return (labels) => has(labels, key) && labels[key] === value;
    }
    case '!=': {
      const value = one(op);
      return (labels) => !has(labels, key) || labels[key] !== value;
    }
    case 'exists':
      if (values.length) throw new LabelSelectorError(`${key} exists: takes no values`);
      return (labels) => has(labels, key);
    case '!':
      if (values.length) throw new LabelSelectorError(`${key} !: takes no values`);
      return (labels) => !has(labels, key);
    case 'gt':
    case 'lt': {
      const value = one(op);
      if (!INTEGER.test(value)) throw new LabelSelectorError(`${key} ${operator}: ${JSON.stringify(value)} is not an integer`);
      const bound = Number(value);
      // Like Kubernetes: a missing or non-integer label never satisfies gt/lt.
      return (labels) => {
        const label = has(labels, key) ? labels[key] : undefined;
        if (label === undefined || !INTEGER.test(label)) return false;
        return op === 'gt' ? Number(label) > bound : Number(label) < bound;
      };
    }
    default:
      throw new LabelSelectorError(
        `${key}: unknown operator ${JSON.stringify(operator)} (use in, notin, exists, !, =, ==, !=, gt or lt)`,
      );
  }
}

/**
 * apimachinery's labels.NewRequirement semantics, as CAPM3's hostSelector and BMO's HostClaim use
 * them (matchLabels plus matchExpressions with Kubernetes' selection operators, case-insensitive,
 * including gt/lt), evaluated in memory so a bad operator is a readable error instead of an API
 * server 400. Throws LabelSelectorError.
 */
export function compileLabelSelector(selector: LabelSelectorInput | undefined): CompiledLabelSelector {
  const requirements: Requirement[] = [];
  const parts: string[] = [];
  for (const [key, value] of Object.entries(selector?.matchLabels ?? {})) {
    requirements.push(requirement(key, '=', [value]));
    parts.push(`${key}=${value}`);
  }
  for (const expression of selector?.matchExpressions ?? []) {
    const values = expression.values ?? [];
    requirements.push(requirement(expression.key, expression.operator, values));
    parts.push(`${expression.key} ${expression.operator}${values.length ? ` ${values.join(',')}` : ''}`);
  }
  return {
    matches: (labels) => requirements.every((check) => check(labels ?? {})),
    description: parts.length ? parts.join(', ') : '(any host)',
  };
}
