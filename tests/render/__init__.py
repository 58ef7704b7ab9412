"""The pictures' core (scenes, SVG, PNG, GIF) and the render command; checks.py and golden/ serve each game's."""
