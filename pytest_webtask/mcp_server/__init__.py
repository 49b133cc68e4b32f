"""``webtask mcp``: a coding agent as the model, over the Model Context Protocol (stdio).

``server.py`` holds the tools; ``bridge.py`` the endpoint where a recording's model requests
wait for the agent; ``runs.py`` the processes it starts; ``requests.py`` what the agent reads
and replies; ``testfile.py`` the test functions it writes. Needs the ``mcp`` extra."""
