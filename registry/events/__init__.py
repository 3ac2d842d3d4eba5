"""Club events (R41): their pairing systems, tables and the Hettlandic system (R44-R46)."""
