// Kubernetes' label key and value syntax, with apimachinery's messages (content.IsLabelKey and
// IsLabelValue), for webhooks that check selectors as BMO's do.
const KEY_NAME_FORMAT = '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]';
const KEY_NAME = new RegExp(`^${KEY_NAME_FORMAT}$`);
const VALUE_FORMAT = `(${KEY_NAME_FORMAT})?`;
const VALUE = new RegExp(`^${VALUE_FORMAT}$`);
const SUBDOMAIN_FORMAT = '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*';
const SUBDOMAIN = new RegExp(`^${SUBDOMAIN_FORMAT}$`);

const KEY_RULE = 'must consist of alphanumeric characters, \'-\', \'_\' or \'.\', and must start and end with an alphanumeric character';
const regexMessage = (message: string, format: string, examples: readonly string[]) =>
  `${message} (e.g. ${examples.map((example) => `'${example}', `).join(' or ')}regex used for validation is '${format}')`;
const byteLength = (text: string) => Buffer.byteLength(text, 'utf8');

function subdomainProblems(value: string): string[] {
  const problems: string[] = [];
  if (byteLength(value) > 253) problems.push('must be no more than 253 bytes');
  if (!SUBDOMAIN.test(value)) {
    problems.push(regexMessage('a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, \'-\' or \'.\', and must start and end with an alphanumeric character', SUBDOMAIN_FORMAT, ['example.com']));
  }
  return problems;
}

/** What is wrong with a label key (an optional DNS subdomain prefix and `/`, then a name); empty when nothing. */
export function labelKeyProblems(key: string): string[] {
  const parts = key.split('/');
  if (parts.length > 2) {
    return [`a valid label key ${regexMessage(KEY_RULE, KEY_NAME_FORMAT, ['MyName', 'my.name', '123-abc'])} with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')`];
  }
  const problems: string[] = [];
  const name = parts.length === 2 ? (parts[1] as string) : (parts[0] as string);
  if (parts.length === 2) {
    const prefix = parts[0] as string;
    if (prefix === '') problems.push('prefix part must be non-empty');
    else problems.push(...subdomainProblems(prefix).map((problem) => `prefix part ${problem}`));
  }
  if (name === '') problems.push('name part must be non-empty');
  else if (byteLength(name) > 63) problems.push('name part must be no more than 63 bytes');
  if (!KEY_NAME.test(name)) problems.push(`name part ${regexMessage(KEY_RULE, KEY_NAME_FORMAT, ['MyName', 'my.name', '123-abc'])}`);
  return problems;
}

/** What is wrong with a label value (empty, or at most 63 bytes of the key name syntax); empty when nothing. */
export function labelValueProblems(value: string): string[] {
  const problems: string[] = [];
  if (byteLength(value) > 63) problems.push('must be no more than 63 bytes');
  if (!VALUE.test(value)) {
    problems.push(regexMessage(`a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character`, VALUE_FORMAT, ['MyValue', 'my_value', '12345']));
  }
  return problems;
}
