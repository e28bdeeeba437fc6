"""The classes a build or a command starts from: the bundled seed corpus (`seeds`), ClassEval's JSON format
(`classeval`) and its import as seeds (`classeval_seeds`), and the candidates a command is given (`inputs`)."""
