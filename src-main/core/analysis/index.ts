/** Local preprocessing: the entry points the job pipeline uses per clip. */
export { analyzeClip } from './analyze-clip';
export type { AnalyzeClipOptions, AnalyzeClipResult, AnalyzeProgress, AnalyzeShotInput } from './analyze-clip-options';
export { AnalysisPool, defaultPoolSize, type AnalysisPoolOptions } from './analysis-pool';
export { DEFAULT_ANALYSIS_SETTINGS, type AnalysisSettings } from './analysis-settings';
export * from './analysis-types';
export { storeAnalysis, loadShotAnalysis, type StoredShotAnalysis } from './analysis-store';
export { probeSource, type SourceInfo } from './source-info';
export { resolveFaceModelPath, resolveWorkerScript } from './resource-paths';
