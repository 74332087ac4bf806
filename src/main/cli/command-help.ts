/**
 * One shape for every command's --help: the usage line, what it does, its own options, and
 * one line on the agent options it also takes (never the whole agent help appended: the
 * reader of `report --help` wants the report's options, and `npm run agent -- --help` has
 * the rest).
 */
export interface CommandHelp {
  /** After `npm run agent -- `: `report --day YYYY-MM-DD [OPTIONS]`. */
  readonly usage: string;
  /** What the command does, a few lines. */
  readonly about: string;
  /** Its own options, one `  --name VALUE   meaning` line each (continuations indented). */
  readonly options: string;
  /** The agent options it also reads (`--api-url, --data-dir, --config`). @default none */
  readonly agentOptions?: string;
}

export function commandHelp(help: CommandHelp): string {
  const also = help.agentOptions
    ? `\nAlso takes the agent's ${help.agentOptions} (npm run agent -- --help explains them).`
    : '\nnpm run agent -- --help lists every command.';
  return `Usage: npm run agent -- ${help.usage}\n${help.about}\nOptions:\n${help.options}\n  --help                   this text${also}`;
}
