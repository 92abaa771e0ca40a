import { spawn } from 'node:child_process';

export interface RunOptions {
  env?: NodeJS.ProcessEnv;
  cwd?: string;
  /** Text sent to standard input. */
  input?: string;
  /** Component name for the error message. */
  component: string;
}

/** Runs a command to completion; rejects with its output when it fails. Resolves to stdout. */
export async function run(command: string, args: string[], options: RunOptions): Promise<string> {
  return new Promise((resolveRun, reject) => {
    const child = spawn(command, args, {
      cwd: options.cwd,
      env: { ...process.env, ...options.env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', (error) => reject(new Error(`${options.component}: cannot run ${command}: ${error.message}`)));
    child.on('close', (code) => {
      if (code === 0) resolveRun(stdout);
      else {
        const output = (stderr || stdout).trim().split('\n').slice(-30).join('\n');
        reject(new Error(`${options.component}: ${command} ${args.join(' ')} exited with ${code}:\n${output}`));
      }
    });
    // A command that exits before reading its input makes the write fail with EPIPE;
    // its exit code already says what happened.
    child.stdin.on('error', () => {});
    child.stdin.end(options.input ?? '');
  });
}
