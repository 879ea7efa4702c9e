"""What mqlearn.pymqi and mqlearn.ibmmq share: IBM's constant modules, the libraries' structures,
their verbs on a simulated queue manager, and the registry of simulated queue managers.

A program written for pymqi or IBM's ibmmq runs here unchanged but for its import line
(``from mqlearn import pymqi`` or ``from mqlearn import ibmmq``); docs/compat.md says what is
simulated and what is not.
"""
