/**
 * The org's sessions: the filtered, paged list at /console/sessions and one session's transcript at
 * /console/sessions/<sessionId>. The list keeps its filters and page while a transcript is open, and its
 * filters in its address (a reload or a shared link shows the same list); what a deletion did is said on
 * the list it returns to.
 */
import { useEffect, useState } from 'preact/hooks';
import { usePager } from '../components/pager';
import type { PageProps } from '../pages';
import { filtersOf, type SessionFilters, searchOf } from '../sessions-views';
import { SessionsList } from './sessions-list';
import { SessionTranscript } from './sessions-transcript';

export function SessionsPage(props: PageProps) {
  const [notice, setNotice] = useState('');
  const [filters, setFilters] = useState<SessionFilters>(() => filtersOf(location.search));
  const pager = usePager();
  const [sessionId] = props.rest;
  useEffect(() => {
    if (!sessionId) history.replaceState(history.state, '', `/console/sessions${searchOf(filters)}`);
  }, [sessionId, filters]);
  if (sessionId)
    return (
      <SessionTranscript
        {...props}
        sessionId={sessionId}
        onDeleted={(said) => {
          setNotice(said);
          props.navigate('/console/sessions');
        }}
      />
    );
  return (
    <SessionsList
      {...props}
      notice={notice}
      filters={filters}
      onFilters={(f) => {
        setFilters(f);
        setNotice('');
      }}
      pager={pager}
    />
  );
}
