"""Training the value networks of ``ai`` (numpy only, one process, resumable).

    python -m ai.training --variant long --state /work/ai_train/long   # runs until stopped

Self-play games generate positions; each position's target is the 1-ply value of the current
nets averaged over all 21 rolls (no dice noise), mixed with the game's later targets by λ; a
replay buffer of recent positions feeds Adam steps on one net per phase. See docs/ai.md.
"""
