"""The Hettlandic system (R44-R46): pairing, the phase-1 table, phase ratings, phase 2."""
