// The dashboard API's answers (docs/dashboard.md), one type per endpoint, and the path -> answer map that types
// api.get. Sections of the job report use the types generated from docs/report-schema.json (report-types.ts);
// what SQL builds (server/sql/queries/dashboard.sql; job_json and job_summary) is typed here, next to the columns'
// nullability: a NOT NULL text column is always a string, a nullable one `| null`.
import type * as Report from './report-types';

export type { Report };

// ---- jobs (job_json, job_summary) ---------------------------------------------------------------------------

export type JobState = `JOB_STATE_${'QUEUED' | 'TRANSLATING' | 'TRANSLATED' | 'VALIDATING' | 'SUCCEEDED' | 'FAILED' | 'CANCELLED'}`;

export interface JobSpec {
  name: string;
  team: string;
  labels: Record<string, string>;
  targets: string[];
  repository: string;
  branch: string;
  commit: string;
  options: { translate_only: boolean };
}

export interface Job {
  id: string;
  spec: JobSpec;
  state: JobState;
  error: string;
  created_at: string;  // RFC 3339 UTC
  updated_at: string;
}

export interface JobSummary {
  has_report: boolean;
  findings: number;
  errors: number;
  open_errors: number;
  warnings: number;
  open_warnings: number;
  notes: number;
  auto_fixed: number;
  inactive: number;
  builds_ok: number;
  builds_failed: number;
  tests_passed: number;
  tests_failed: number;
  parity_match: number;
  parity_mismatch: number;
  // From the report document: null without one (or without that section).
  translation: Report.Totals | null;
  engineer_hours: number | null;
  automatic_share: number | null;
  kernel_time_ratio: number | null;
  verdict: Report.Verdict | null;
  gate: Report.Gate;  // the report schema types it, definition and conditions included
}

export type JobWithSummary = Job & { summary: JobSummary };

// ---- endpoints ----------------------------------------------------------------------------------------------

// GET teams
export interface TeamsAnswer { teams: { team: string; jobs: number; repositories: number; latest_job_at: string | null }[] }

// GET teams/{team}/repositories
export interface RepositoryRow {
  repository: string;
  jobs: number;
  latest_job: Job;
  gate_job: JobWithSummary | null;           // the latest finished job
  previous_gate_job: JobWithSummary | null;  // the finished job before it
}
export interface RepositoriesAnswer { team: string; repositories: RepositoryRow[]; next_page_token: string }

// GET jobs
export interface JobsAnswer { jobs: JobWithSummary[]; next_page_token: string }

// GET jobs/{id}: the report's translation and effort sections without their per-file rows ({} without a report).
export type JobAnswer = JobWithSummary & {
  translation: Partial<Omit<Report.Translation, 'files'>>;
  effort: Partial<Omit<Report.Effort, 'files'>>;
  gpu: Report.Gpu | null;
  previous_job_id: string | null;
  artifact_kinds: string[];
};

// GET jobs/{id}/report: the stored report with the gate job_summary judges.
export type ReportAnswer = Report.HipforgeMigrationReport;

// GET jobs/{id}/findings: report_findings rows (every column NOT NULL) and whether the compared job has each.
export type DashboardFinding = Required<Omit<Report.Finding, 'fixable'>> & {
  fingerprint: string;
  ordinal: number;
  in_other: boolean | null;  // null: no job to compare with
};
export interface FindingsAnswer { findings: DashboardFinding[]; next_page_token: string; compared_with: string | null }

// GET jobs/{id}/findings/rules
export interface RuleCount {
  rule_id: string;
  severity: Report.Severity;
  count: number;
  auto_fixed: number;
  inactive: number;
  open: number;
  files: number;
  message: string;
  new: number | null;  // null: no job to compare with
}
export interface FindingRulesAnswer { rules: RuleCount[]; compared_with: string | null }

// GET jobs/{id}/builds: report_builds rows; a kernel's resources are nullable columns.
type ReportKernel = NonNullable<Report.Build['kernels']>[number];
export type KernelResource = Exclude<keyof ReportKernel, 'name'>;
export type DashboardKernel = { name: string } & { [K in KernelResource]: number | null };
export type DashboardBuild = Required<Omit<Report.Build, 'kernels'>> & { kernels: DashboardKernel[] };
export interface BuildsAnswer { builds: DashboardBuild[] }

// GET jobs/{id}/tests: report_tests rows, nulls stripped; the CUDA reference's status flattened.
export type DashboardTest = Omit<Report.Test, 'cuda'> & { cuda_status?: Report.Test['status'] };
export interface TestsAnswer { tests: DashboardTest[] }

// GET jobs/{id}/parity, profile, effort: the report's sections as stored ([] or {} without one); each profiled
// kernel gains its HIP/CUDA ratio (null without a CUDA baseline).
export interface ParityAnswer { parity: Report.Parity[] }
export interface ProfileAnswer { profile: (Report.Profile & { ratio?: number | null })[] }
export interface EffortAnswer { effort: Partial<Report.Effort> }

// GET jobs/{id}/patch?path=
export interface PatchHunk { header: string; old_start: number; old_lines: number; new_start: number; new_lines: number; lines: string[] }
export interface PatchAnswer { path: string; hunks: PatchHunk[] }

// GET compare?base=&head=
export interface CompareAnswer {
  base: JobWithSummary;
  head: JobWithSummary;
  new: number;
  fixed: number;
  unchanged: number;
  rules: { rule_id: string; new: number; fixed: number; unchanged: number }[];
}

// GET trends?repository=
export interface TrendPoint { job_id: string; seq: number; state: JobState; commit: string; branch: string; created_at: string; summary: JobSummary }
export interface TrendsAnswer { repository: string; points: TrendPoint[] }

// GET jobs/{id}/events: hipforge.v1.JobEvent through protobuf's JSON mapping, which leaves out empty strings and
// zeros (so every field is optional), then `end` once the job is final.
type WireJobState = JobState | 'JOB_STATE_UNSPECIFIED';
export interface JobEvent {
  sequence?: string;  // int64: a string in protobuf's JSON
  job_id?: string;
  time?: string;
  state_change?: { from?: WireJobState; to?: WireJobState; reason?: string };
  file_progress?: { path?: string; done?: number; total?: number; status?: string };
  step?: { kind?: string; name?: string; status?: string; detail?: string };
  log?: { level?: string; message?: string };
}
export interface StreamEnd { ok: boolean; state?: WireJobState; error?: string }

// Every error answer.
export interface ErrorAnswer { error: { code: number; status: string; message: string } }

// ---- path -> answer -----------------------------------------------------------------------------------------

// The paths api.get takes (after /api/v1/) and what each answers; the most specific pattern first.
export type ApiPath = 'teams' | `teams/${string}/repositories` | 'jobs' | `jobs/${string}` | 'compare' | 'trends';

export type Answer<P extends ApiPath> =
  P extends 'teams' ? TeamsAnswer
  : P extends `teams/${string}/repositories` ? RepositoriesAnswer
  : P extends 'jobs' ? JobsAnswer
  : P extends `jobs/${string}/findings/rules` ? FindingRulesAnswer
  : P extends `jobs/${string}/findings` ? FindingsAnswer
  : P extends `jobs/${string}/report` ? ReportAnswer
  : P extends `jobs/${string}/builds` ? BuildsAnswer
  : P extends `jobs/${string}/tests` ? TestsAnswer
  : P extends `jobs/${string}/parity` ? ParityAnswer
  : P extends `jobs/${string}/profile` ? ProfileAnswer
  : P extends `jobs/${string}/effort` ? EffortAnswer
  : P extends `jobs/${string}/patch` ? PatchAnswer
  : P extends `jobs/${string}/${string}` ? never  // events and downloads are not JSON: api.watch, api.download
  : P extends `jobs/${string}` ? JobAnswer
  : P extends 'compare' ? CompareAnswer
  : P extends 'trends' ? TrendsAnswer
  : never;
