"""What a run shows people while and after it runs: the live recording line."""
