import { useState, type ReactNode } from 'react';
import { LibraryView } from './views/LibraryView';
import { SearchView } from './views/SearchView';
import { SelectsView } from './views/SelectsView';
import { PeopleView } from './views/PeopleView';
import { CollectionsView } from './views/CollectionsView';
import { JobsView } from './views/JobsView';
import { SettingsView } from './views/SettingsView';
import { StatusBanner } from './components/StatusBanner';
import { CatalogRecovery } from './components/catalog/CatalogRecovery';
import { CatalogNoRoom } from './components/catalog/CatalogNoRoom';
import { useCatalogHealth } from './api/use-catalog-health';

export type ViewId = 'library' | 'selects' | 'search' | 'people' | 'collections' | 'jobs' | 'settings';

const NAV: { id: ViewId; label: string; icon: string }[] = [
  { id: 'library', label: 'Library', icon: '▦' },
  { id: 'selects', label: 'Selects', icon: '✂' },
  { id: 'search', label: 'Search', icon: '⌕' },
  { id: 'people', label: 'People', icon: '☺' },
  { id: 'collections', label: 'Collections', icon: '☁' },
  { id: 'jobs', label: 'Jobs', icon: '≡' },
  { id: 'settings', label: 'Settings', icon: '⚙' },
];

export function App(): ReactNode {
  const [view, setView] = useState<ViewId>(() => {
    const fromHash = location.hash.slice(1) as ViewId;
    return NAV.some((n) => n.id === fromHash) ? fromHash : 'library';
  });
  const go = (v: ViewId) => {
    setView(v);
    history.replaceState(null, '', `#${v}`);
  };
  const { health, epoch, setHealth } = useCatalogHealth();
  // Nothing else can be shown on a catalog that cannot be read: the way out instead.
  if (health?.state === 'damaged') return <CatalogRecovery health={health} onChanged={setHealth} />;
  if (health?.state === 'no_room') return <CatalogNoRoom health={health} />;
  return (
    <div className="shell">
      <nav className="sidebar" aria-label="Main">
        <div className="brand">
          <span className="brand-mark">◉</span> Reelscout
        </div>
        {NAV.map((n) => (
          <button key={n.id} className={`nav-item${view === n.id ? ' active' : ''}`} onClick={() => go(n.id)} data-nav={n.id} aria-current={view === n.id ? 'page' : undefined}>
            <span className="nav-icon" aria-hidden>
              {n.icon}
            </span>
            {n.label}
          </button>
        ))}
      </nav>
      {/* A catalog restored or writable again: every view loads afresh. */}
      <main className="content" key={epoch}>
        <StatusBanner health={health} onOpenSettings={() => go('settings')} />
        {view === 'library' && <LibraryView />}
        {view === 'selects' && <SelectsView />}
        {view === 'search' && <SearchView />}
        {view === 'people' && <PeopleView onOpenSettings={() => go('settings')} />}
        {view === 'collections' && <CollectionsView />}
        {view === 'jobs' && <JobsView />}
        {view === 'settings' && <SettingsView health={health} onCatalogChanged={setHealth} />}
      </main>
    </div>
  );
}
