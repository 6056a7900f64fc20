/**
 * The environment variables a reader reads, each with the section of
 * docs/configuration.md that explains it. Every reader in src/config exports
 * the list of its own beside it, and a command's `--help` names the lists of
 * the readers it calls (src/cli/command-line.ts), so what a command says it
 * reads is what its readers read (test/config/env-settings.test.ts holds
 * each list to its reader's code).
 */
export const SETTINGS_SECTIONS = [
  "API",
  "Site",
  "Build and deploy",
  "Weekly digest",
  "The fediverse",
  "The .env file",
  "Tools",
] as const;
export type SettingsSection = (typeof SETTINGS_SECTIONS)[number];

export interface EnvSetting {
  readonly name: string;
  readonly section: SettingsSection;
}

export function envSettings(section: SettingsSection, names: readonly string[]): EnvSetting[] {
  return names.map((name) => ({ name, section }));
}
