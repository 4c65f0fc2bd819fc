"""Game knowledge: the reduced minecraft-data facts and the curated facts they lack, as one typed object."""
