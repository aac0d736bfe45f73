-- 0003: per-model token calibration (docs/context.md, "Calibration"). Budgets are counted with
-- the o200k tokenizer, but each model family tokenises differently (Qwen, Llama, DeepSeek,
-- GLM run locally); the ratio of the server's reported prompt tokens to the estimate is kept
-- per model, smoothed and bounded, and applied to the budgets.
CREATE TABLE token_calibration (
    model      TEXT PRIMARY KEY NOT NULL,
    -- Reported prompt tokens per estimated token.
    factor     REAL NOT NULL CHECK (factor >= 0.5 AND factor <= 2.0),
    -- Requests the factor was learnt from.
    samples    INTEGER NOT NULL CHECK (samples >= 1),
    updated_at TEXT NOT NULL
) STRICT;
