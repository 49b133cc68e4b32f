"""Apps the bench runs against that the agent's rules were never tuned on (issue 45)."""
