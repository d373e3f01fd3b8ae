// GENERATED from docs/report-schema.json by web/report-types.mjs (json-schema-to-typescript): do not edit.
// After changing the schema: cd web && node report-types.mjs (npm run typecheck fails until then).

export type Count = number;
export type Severity = 'error' | 'warning' | 'note';
export type GateConditionName = 'builds' | 'tests' | 'parity' | 'findings' | 'warnings';

/**
 * The report JSON written by common/report/report_json.cc (ToJson) and read by ReportFromJson. docs/report.md explains each section. Every section is optional: the translate role writes translation/findings/effort, the validate role builds/tests/parity/profile/gpu. tests/common/report_schema_test.py validates produced reports against this schema.
 */
export interface HipforgeMigrationReport {
  /**
   * Set by the server when it returns a stored report.
   */
  job_id?: string;
  translation?: Translation;
  findings?: Finding[];
  effort?: Effort;
  builds?: Build[];
  tests?: Test[];
  parity?: Parity[];
  profile?: Profile[];
  gpu?: Gpu;
  verdict?: Verdict;
  gate?: Gate;
}
export interface Translation {
  files: File[];
  totals: Totals;
  notes?: string[];
}
export interface File {
  /**
   * In the output tree, relative.
   */
  path: string;
  /**
   * In the input tree, relative (differs when renamed).
   */
  source_path?: string;
  kind?:
    | 'cuda-source'
    | 'header'
    | 'cpp-source'
    | 'cmake'
    | 'makefile'
    | 'shell'
    | 'dockerfile'
    | 'ci'
    | 'python'
    | 'other'
    | '';
  status: 'translated' | 'unchanged' | 'fallback' | 'copied' | 'failed';
  fallback_reason?: string;
  converted?: {
    [k: string]: Count;
  };
  unconverted?: Count;
  unsupported?: Count;
  lines_changed?: Count;
  changed_by?: string[];
  left_for_person?: string[];
  from_cache?: boolean;
  /**
   * The repository pass treated the file as CUDA code: a .cu/.cuh, or a C/C++ file that uses CUDA or that a CUDA file includes. A C/C++ file without it keeps its kind and is copied as it is. Absent in reports written before it: true for the source kinds.
   */
  translated_as_cuda?: boolean;
  /**
   * A translation unit not parsed: the unit whose parse covered every header it includes (it holds only #includes and declarations).
   */
  covered_by?: string;
  /**
   * Translation units: the arguments of each configuration parsed and where each came from.
   */
  compile_arguments?: {
    configuration: string;
    used: {
      argument: string;
      source: string;
    }[];
    rejected: {
      argument: string;
      reason: string;
    }[];
  }[];
}
export interface Totals {
  files: Count;
  translated: Count;
  unchanged?: Count;
  fallback: Count;
  copied?: Count;
  failed?: Count;
  converted: Count;
  unconverted?: Count;
  unsupported: Count;
  lines_changed: Count;
  /**
   * CUDA sources and headers: the job's files_total.
   */
  cuda_files?: number;
  /**
   * Of those, translated or fallback: files_translated.
   */
  cuda_files_translated?: number;
  /**
   * Of those, the ones that needed no change.
   */
  cuda_files_unchanged?: number;
}
export interface Finding {
  /**
   * HBxxx (analyzer) or TRxxx (translator).
   */
  rule_id: string;
  severity: Severity;
  path?: string;
  line?: Count;
  column?: Count;
  message: string;
  fix?: string;
  /**
   * The fix was applied to the migrated tree: nothing left for a person.
   */
  auto_fixed?: boolean;
  /**
   * An automatic fix exists (applied or not).
   */
  fixable?: boolean;
  /**
   * The CUDA source line the finding points at (input tree).
   */
  source_line?: string;
  /**
   * In lines the build's preprocessing drops (an #if branch the build does not take): listed, not left for a person, not charged.
   */
  inactive?: boolean;
}
export interface Effort {
  /**
   * Work left for a person: the sum of items[].hours.
   */
  engineer_hours: number;
  automatic_share: number;
  by_severity?: BySeverity;
  files?: {
    path: string;
    engineer_hours: number;
    by_severity?: BySeverity;
  }[];
  items?: {
    what: string;
    count: Count;
    hours_each: number;
    hours: number;
  }[];
  /**
   * Where the effort model is documented.
   */
  model?: string;
}
export interface BySeverity {
  [k: string]: Count;
}
export interface Build {
  requested_arch: string;
  arch: string;
  toolchain?: string;
  ok: boolean;
  duration_ms?: Count;
  errors?: {
    path?: string;
    line?: Count;
    message: string;
  }[];
  kernels?: {
    name: string;
    vgprs?: number;
    sgprs?: number;
    agprs?: number;
    scratch_bytes?: number;
    occupancy?: number;
    spills?: number;
    lds_bytes?: number;
  }[];
  note?: string;
  log_excerpt?: string;
}
export interface Test {
  name: string;
  arch?: string;
  status: 'passed' | 'failed' | 'timed_out' | 'not_run';
  duration_ms?: Count;
  output_excerpt?: string;
  /**
   * The same test on the submitted CUDA tree built for the same GPU (automatic CUDA reference).
   */
  cuda?: {
    status: 'passed' | 'failed' | 'timed_out' | 'not_run';
    duration_ms?: Count;
    output_excerpt?: string;
  };
}
export interface Parity {
  case: string;
  verdict: 'match' | 'mismatch' | 'missing';
  /**
   * null: infinite (NaN where the reference had a number).
   */
  max_abs_error?: number | null;
  max_rel_error?: number | null;
  mismatches?: Count;
  elements?: Count;
  detail?: string;
}
export interface Profile {
  kernel: string;
  calls: Count;
  total_ns: Count;
  cuda_baseline_ns?: number | null;
  cuda_calls?: Count;
}
export interface Gpu {
  ran_on_gpu: boolean;
  note?: string;
  device_key?: string;
  device_arch?: string;
  warnings?: string[];
  /**
   * What the automatic CUDA reference ran, or why none ran.
   */
  cuda_reference?: string;
}
/**
 * What the job proved (DecideVerdict in common/report/report.cc); written by the translate role (translated only) and replaced by the validate role's.
 */
export interface Verdict {
  level: 'translated_only' | 'builds' | 'behaviour_checked' | 'failed';
  platform?: string;
  why?: string;
  not_proved?: string[];
}
/**
 * The migration gate, added by the server when it returns a stored report (job_summary, docs/dashboard.md); never stored, absent from local reports.
 */
export interface Gate {
  status: 'passed' | 'failed' | 'not_validated' | 'not_proved';
  /**
   * The required conditions that failed (or, for builds, tests and parity, did not run).
   */
  blocking: GateConditionName[];
  definition: GateDefinition;
  /**
   * All five conditions in the order builds, tests, parity, findings, warnings, as job_summary judges them.
   */
  conditions: GateCondition[];
}
/**
 * What the gate requires and where that was set (docs/dashboard.md).
 */
export interface GateDefinition {
  /**
   * repository: its hipforge.yaml gate: (label hipforge.gate); team: migrate-server gate set; default: every condition.
   */
  source: 'default' | 'repository' | 'team';
  requires: GateConditionName[];
}
/**
 * One condition of the gate as job_summary judges it.
 */
export interface GateCondition {
  name: GateConditionName;
  /**
   * The definition requires it: only then does it count for status and blocking.
   */
  required: boolean;
  /**
   * none: nothing of the kind ran.
   */
  status: 'passed' | 'failed' | 'none';
  /**
   * In words: "2 ok, 0 failed".
   */
  detail: string;
}
