/**
 * The org's sessions: the filtered, paged list at /console/sessions and one session's transcript at
 * /console/sessions/<sessionId>. What a deletion did is said on the list it returns to.
 */
import { useState } from 'preact/hooks';
import type { PageProps } from '../pages';
import { SessionsList } from './sessions-list';
import { SessionTranscript } from './sessions-transcript';

export function SessionsPage(props: PageProps) {
  const [notice, setNotice] = useState('');
  const [sessionId] = props.rest;
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
  return <SessionsList {...props} notice={notice} />;
}
