"""Campaign storage: YAML files, logs, the private folder, locks and transactions."""
