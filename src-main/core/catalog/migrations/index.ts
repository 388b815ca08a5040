import type { Migration } from '../migration';
import { m0001Library } from './0001-library';
import { m0002ImportLog } from './0002-import-log';
import { m0003Analysis } from './0003-analysis';
import { m0004ServiceCache } from './0004-service-cache';
import { m0005Search } from './0005-search';
import { m0006Pipeline } from './0006-pipeline';
import { m0007CollectionUploads } from './0007-collection-uploads';
import { m0008ServiceLosses } from './0008-service-losses';
import { m0013ShotTransitions } from './0013-shot-transitions';
import { m0014CanonicalTags } from './0014-canonical-tags';
import { m0015TagResolution } from './0015-tag-resolution';
import { m0016Marks } from './0016-marks';
import { m0017RemoteClips } from './0017-remote-clips';
import { m0018AnalysisDecodesOnce } from './0018-analysis-decodes-once';
import { m0019ShotsInAnalysisDecode } from './0019-shots-in-analysis-decode';
import { m0020ImportClips } from './0020-import-clips';
import { m0021ShotTimesOnFrames } from './0021-shot-times-on-frames';
import { m0022ExchangeFacts } from './0022-exchange-facts';
import { m0025QueryBank } from './0025-query-bank';
import { m0035CollectionSyncs } from './0035-collection-syncs';
import { m0041ClipSampleAspect } from './0041-clip-sample-aspect';
import { m0045OneWordForFinished } from './0045-one-word-for-finished';
import { m0046TeamReplica } from './0046-team-replica';
import { m0047MarksOfflineFirst } from './0047-marks-offline-first';
import { m0048CollectionMembersOfflineFirst } from './0048-collection-members-offline-first';

/** Numbered, append-only. Never edit a migration that has shipped: add the next number. */
export const MIGRATIONS: readonly Migration[] = [m0001Library, m0002ImportLog, m0003Analysis, m0004ServiceCache, m0005Search, m0006Pipeline, m0007CollectionUploads, m0008ServiceLosses, m0013ShotTransitions, m0014CanonicalTags, m0015TagResolution, m0016Marks, m0017RemoteClips, m0018AnalysisDecodesOnce, m0019ShotsInAnalysisDecode, m0020ImportClips, m0021ShotTimesOnFrames, m0022ExchangeFacts, m0025QueryBank, m0035CollectionSyncs, m0041ClipSampleAspect, m0045OneWordForFinished, m0046TeamReplica, m0047MarksOfflineFirst, m0048CollectionMembersOfflineFirst];
