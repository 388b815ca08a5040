import { useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import type { AppError } from '../../../src-shared/errors';
import { api } from '../api/client';
import { AttachPanel } from '../components/collections/AttachPanel';
import { CollectionList } from '../components/collections/CollectionList';
import { CollectionSearch } from '../components/collections/CollectionSearch';
import { CreateCollectionForm } from '../components/collections/CreateCollectionForm';
import { timeOf } from '../components/collections/format';
import { useCollectionsList, useCollectionVideos } from '../components/collections/use-collections';
import { VideoTable } from '../components/collections/VideoTable';
import { Viewer } from '../components/viewer/Viewer';
import '../components/collections/collections.css';

export function CollectionsView(): ReactNode {
  const { list, loading, error, reload } = useCollectionsList();
  const [selectedId, setSelectedId] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [showAttach, setShowAttach] = useState(false);
  const [viewerClip, setViewerClip] = useState<number | null>(null);

  // Counts in the list follow status changes, read from the cache (no service call).
  const countsTimer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const refreshCounts = () => {
    if (countsTimer.current) return;
    countsTimer.current = setTimeout(() => {
      countsTimer.current = null;
      void reload(false);
    }, 400);
  };
  useEffect(() => () => {
    if (countsTimer.current) clearTimeout(countsTimer.current);
  }, []);

  const { videos, error: videosError, reload: reloadVideos } = useCollectionVideos(selectedId, refreshCounts);
  const attached = useMemo(() => new Set(videos.map((v) => v.clipId)), [videos]);

  const collections = useMemo(() => list?.collections ?? [], [list]);
  const selected = collections.find((c) => c.id === selectedId) ?? null;
  useEffect(() => {
    if (!selectedId && collections.length > 0) setSelectedId(collections[0]!.id);
  }, [collections, selectedId]);

  const act = async (f: () => Promise<unknown>) => {
    try {
      await f();
      await reloadVideos();
    } catch (e) {
      setNotice((e as AppError).message);
    }
  };

  return (
    <div className="view col-view" data-view="collections">
      <div className="row col-header">
        <h1>Collections</h1>
        <button className="btn" onClick={() => void reload(true)} disabled={loading} data-action="refresh-collections">
          {loading ? 'Refreshing…' : 'Refresh'}
        </button>
        {list && (
          <span className={`col-small ${list.source === 'cache' && list.error ? 'col-warn' : 'muted'}`} data-testid="collections-source">
            {list.source === 'service'
              ? goneCount(list.collections) > 0
                ? `Synced with the service (${timeOf(list.syncedAt)}): ${goneCount(list.collections)} collection(s) it no longer lists`
                : `Up to date with the service (${timeOf(list.syncedAt)})`
              : list.error
                ? `Offline list: cached ${list.syncedAt === null ? '— nothing cached yet' : `at ${timeOf(list.syncedAt)}`}. The service could not be asked (${list.error.kind}: ${list.error.message}).`
                : `From the cache (synced ${timeOf(list.syncedAt)})`}
          </span>
        )}
      </div>
      {error && <div className="error-text">{error}</div>}
      <div className="col-layout">
        <aside className="col-side">
          <CreateCollectionForm
            onCreated={(c) => {
              setSelectedId(c.id);
              setNotice(`Created “${c.name}”.`);
            }}
          />
          <CollectionList collections={collections} selectedId={selectedId} onSelect={setSelectedId} />
        </aside>
        <section className="col-main">
          {selected ? (
            <>
              <div className="row col-title">
                <div className="col-grow">
                  <h2>{selected.name}</h2>
                  <div className="muted col-small">
                    {selected.description ? `${selected.description} · ` : ''}
                    <span className="col-mono">{selected.id}</span>
                  </div>
                </div>
                <button className="btn primary" onClick={() => setShowAttach((s) => !s)} data-action="show-attach">
                  {showAttach ? 'Close' : 'Add clips'}
                </button>
                {selected.inFlight > 0 && (
                  <button className="btn" onClick={() => void act(() => api.call('collections.cancel', { collectionId: selected.id }))}>
                    Cancel all
                  </button>
                )}
              </div>
              {notice && (
                <div className="col-notice row" role="status">
                  <span className="col-grow">{notice}</span>
                  <button className="btn col-small" onClick={() => setNotice(null)}>
                    Dismiss
                  </button>
                </div>
              )}
              {showAttach && (
                <AttachPanel
                  collectionId={selected.id}
                  attached={attached}
                  onDone={(text) => {
                    setNotice(text);
                    setShowAttach(false);
                    void reloadVideos();
                  }}
                />
              )}
              {videosError && <div className="error-text">{videosError}</div>}
              <VideoTable
                videos={videos}
                onCancel={(clipId) => void act(() => api.call('collections.cancel', { collectionId: selected.id, clipIds: [clipId] }))}
                onRetry={(clipId) => void act(() => api.call('collections.attach', { collectionId: selected.id, clipIds: [clipId] }))}
                onRemove={(clipId) => void act(() => api.call('collections.remove', { collectionId: selected.id, clipIds: [clipId] }))}
                onOpen={setViewerClip}
              />
              <CollectionSearch key={selected.id} collectionId={selected.id} onOpen={setViewerClip} />
            </>
          ) : (
            <div className="empty">Create a collection, or refresh to load the service's list.</div>
          )}
        </section>
      </div>
      {viewerClip !== null && <Viewer key={viewerClip} clipId={viewerClip} onClose={() => setViewerClip(null)} />}
    </div>
  );
}

function goneCount(collections: readonly { goneAt: number | null }[]): number {
  return collections.filter((c) => c.goneAt !== null).length;
}
