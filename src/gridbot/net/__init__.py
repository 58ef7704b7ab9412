"""Networked Pellet Eater: the asyncio game server (`server`) and the solving client (`client`).

The protocol is the one of GAMES.md section 2: a banner ending with the line
`Ready?`, then per round a board (`W H` and H rows), one answer line from the
client (its move string) and one reply line from the server; after the last
board the flag.
"""
