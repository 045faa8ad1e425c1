import { Fragment } from 'react';
import { nameParts } from '../lib/format.js';

/**
 * A username that wraps only after its dots, hyphens and underscores (`<wbr>`, lib/format.ts
 * `nameParts`), so a narrow column shows all of it without splitting a word. Its text is the
 * name unchanged: copying it, searching for it or reading it aloud gives the name.
 */
export function BreakableName({ name }: { name: string }) {
  return (
    <>
      {nameParts(name).map((part, index) => (
        <Fragment key={index}>
          {index > 0 && <wbr />}
          {part}
        </Fragment>
      ))}
    </>
  );
}
