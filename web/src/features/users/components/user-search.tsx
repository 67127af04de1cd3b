// User Accounts' search: name, e-mail or mobile, searched by the server; the text lives in the
// URL (?q=), so reload and the back button keep it, and a new search starts at page 1.
import { useState } from 'react';
import { useUrlFilter } from '@/lib/url-filter';

const KEYS = ['q'] as const;

export function useUserSearch() {
  const f = useUrlFilter(KEYS);
  return { q: f.values.q, apply: (q: string) => f.apply({ q }), clear: f.clear };
}

export function UserSearch({ q, onSearch, onClear }: { q: string; onSearch: (q: string) => void; onClear: () => void }) {
  const [text, setText] = useState(q);
  return (
    <form
      className="table-search"
      role="search"
      aria-label="Search users"
      onSubmit={(e) => {
        e.preventDefault();
        onSearch(text);
      }}
    >
      <label htmlFor="user-search">Search</label>
      <input
        id="user-search"
        type="search"
        placeholder="Name, e-mail or mobile"
        maxLength={100}
        value={text}
        onChange={(e) => setText(e.target.value)}
      />
      <button type="submit" className="btn btn-primary btn-sm">
        Search
      </button>
      {q && (
        <button
          type="button"
          className="btn btn-secondary btn-sm"
          onClick={() => {
            setText('');
            onClear();
          }}
        >
          Clear
        </button>
      )}
    </form>
  );
}
