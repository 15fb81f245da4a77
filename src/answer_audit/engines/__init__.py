"""Engines that run the same analysis elsewhere: `answer_audit.engines.ray` on a Ray cluster.

Each engine is optional (an extra: ``pip install '.[ray]'``) and imported only when used, so the
package never needs one to run on one machine.
"""
