"""Other tools' task formats: MineStudio / MCU task configs read into molecules and written from tasks."""
