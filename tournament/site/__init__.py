"""Site-wide web plumbing: the header's context, the 4xx net under every view, the address
phones reach, and the websocket origin check."""
