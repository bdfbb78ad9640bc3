-- Removing a pipeline stage and writing a lead into a stage serialise per account, on a transaction-level
-- advisory lock of the account (lib/leads/pipeline.ts, removePipelineStage): writers of leads that set a stage hold it
-- shared (they never wait for one another), the removal of a stage holds it exclusively. Before, the
-- removal took LOCK TABLE leads IN SHARE MODE, and one account's removal stalled every account's lead
-- writes for up to 5 s. The key is a 64-bit hash of "pipeline:" and the account, so two accounts share a
-- lock (and wait for each other) about once in 2^64, and it stays apart from the app's other advisory locks.
CREATE FUNCTION lock_account_pipeline(p_account_id uuid, p_exclusive boolean) RETURNS void
LANGUAGE plpgsql VOLATILE AS $$
BEGIN
  IF p_exclusive THEN
    PERFORM pg_advisory_xact_lock(hashtextextended('pipeline:' || p_account_id::text, 0));
  ELSE
    PERFORM pg_advisory_xact_lock_shared(hashtextextended('pipeline:' || p_account_id::text, 0));
  END IF;
END $$;

-- The stage a lead write may use: `p_stage` when the pipeline has it, the first stage when `p_stage` is
-- null, else null; under the account's shared lock. VOLATILE on purpose: a volatile function reads with
-- a snapshot taken after the lock is granted, so a write that waited for a removal sees the stage gone,
-- where the calling statement's own snapshot (taken before it waited) would still see it.
CREATE FUNCTION lead_stage_for_write(p_account_id uuid, p_stage text) RETURNS text
LANGUAGE plpgsql VOLATILE AS $$
BEGIN
  PERFORM lock_account_pipeline(p_account_id, false);
  RETURN (SELECT key FROM pipeline_stages WHERE account_id = p_account_id AND (p_stage IS NULL OR key = p_stage) ORDER BY position, key LIMIT 1);
END $$;
