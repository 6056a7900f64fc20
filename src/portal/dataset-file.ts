import { readFile } from "node:fs/promises";
import { DatasetError, validateDataset } from "./dataset-validate.ts";
import type { PortalDataset } from "./types.ts";

/** Reads and validates a dataset file (docs/dataset.md). */
export async function loadDatasetFile(path: string): Promise<PortalDataset> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    throw new DatasetError(`cannot read dataset file ${path}: ${(error as Error).message}`, {
      cause: error,
    });
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new DatasetError(`dataset file ${path} is not valid JSON: ${(error as Error).message}`, {
      cause: error,
    });
  }
  try {
    return validateDataset(json);
  } catch (error) {
    if (error instanceof DatasetError) {
      throw new DatasetError(`${path}: ${error.message}`, { cause: error });
    }
    throw error;
  }
}
