"""The `classeval-pro validate` command: reading what it is given (`inputs`) and printing the gate's table (`cli`)."""
