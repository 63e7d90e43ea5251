//! audit: the tool-usage database (ingest, stats, refine, compose, explain, federate; seed 001).
