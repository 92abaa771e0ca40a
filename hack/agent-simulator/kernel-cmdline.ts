/**
 * A Linux kernel command line as the kernel splits it (lib/cmdline.c next_arg):
 * blanks separate parameters, double quotes keep blanks inside one and are
 * dropped, and a bare `--` ends the kernel's parameters (the rest go to init).
 */

export interface KernelParameter {
  key: string;
  /** Undefined for a flag without `=` (e.g. `nofb`); '' for `key=`. */
  value: string | undefined;
}

export interface KernelCommandLine {
  parameters: KernelParameter[];
  /** Arguments after `--`, handed to init. */
  initArguments: string[];
}

export function parseKernelCommandLine(text: string): KernelCommandLine {
  const parameters: KernelParameter[] = [];
  const initArguments: string[] = [];
  let afterSeparator = false;
  for (const token of tokenize(text)) {
    if (afterSeparator) {
      initArguments.push(token.text);
      continue;
    }
    if (token.text === '--' && !token.quoted) {
      afterSeparator = true;
      continue;
    }
    const equals = token.text.indexOf('=');
    parameters.push(
      equals < 0
        ? { key: token.text, value: undefined }
        : { key: token.text.slice(0, equals), value: token.text.slice(equals + 1) },
    );
  }
  return { parameters, initArguments };
}

/**
 * `key=value` parameters as IPA reads them into its configuration: flags are
 * ignored and a key given twice keeps its last value.
 */
export function kernelParameterValues(commandLine: KernelCommandLine): Map<string, string> {
  const values = new Map<string, string>();
  for (const { key, value } of commandLine.parameters) {
    if (value !== undefined) values.set(key, value);
  }
  return values;
}

function* tokenize(text: string): Generator<{ text: string; quoted: boolean }> {
  let index = 0;
  while (index < text.length) {
    while (index < text.length && isBlank(text[index]!)) index++;
    if (index >= text.length) return;
    let token = '';
    let inQuotes = false;
    let quoted = false;
    while (index < text.length && (inQuotes || !isBlank(text[index]!))) {
      const char = text[index]!;
      if (char === '"') {
        inQuotes = !inQuotes;
        quoted = true;
      } else {
        token += char;
      }
      index++;
    }
    yield { text: token, quoted };
  }
}

function isBlank(char: string): boolean {
  return char === ' ' || char === '\t' || char === '\n' || char === '\r';
}
