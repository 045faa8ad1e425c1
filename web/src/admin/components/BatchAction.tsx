import { Button } from '@mui/material';
import type { ReactNode } from 'react';
import { useState } from 'react';
import { runSummarisedBatch, type BatchResult } from '../batch.js';
import { ConfirmDialog } from './ConfirmDialog.js';

interface BatchActionProps {
  /** The selected row ids; the button is disabled when there are none. */
  ids: readonly number[];
  label: string;
  icon?: ReactNode;
  color?: 'error' | 'success' | 'primary' | 'secondary';
  /** The one confirmation for the whole batch. */
  confirmTitle: string;
  confirmMessage: string;
  confirmLabel: string;
  /** Past participle for the summary: 'Eliminati', 'Approvate'. */
  doneLabel: string;
  /** The screen's own failure message, said for a refusal that carries no reason of its own. */
  failureMessage: string;
  action: (id: number) => Promise<unknown>;
  onDone: (summary: string, result: BatchResult) => void;
}

/**
 * A bulk action on the selected rows: one confirmation, then a summary (issue 6) that says why
 * the refused rows were refused, as the server put it.
 */
export function BatchAction({
  ids,
  label,
  icon,
  color = 'error',
  confirmTitle,
  confirmMessage,
  confirmLabel,
  doneLabel,
  failureMessage,
  action,
  onDone,
}: BatchActionProps) {
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  const run = async () => {
    setBusy(true);
    try {
      const { result, summary } = await runSummarisedBatch(ids, action, doneLabel, failureMessage);
      setOpen(false);
      onDone(summary, result);
    } finally {
      setBusy(false);
    }
  };
  return (
    <>
      <Button
        variant="outlined"
        color={color}
        startIcon={icon}
        disabled={ids.length === 0 || busy}
        onClick={() => setOpen(true)}
      >
        {ids.length === 0 ? label : `${label} (${ids.length})`}
      </Button>
      <ConfirmDialog
        open={open}
        title={confirmTitle}
        message={confirmMessage}
        confirmLabel={confirmLabel}
        confirmColor={color}
        busy={busy}
        onConfirm={() => void run()}
        onCancel={() => setOpen(false)}
      />
    </>
  );
}
