"""The Manchester ManKalah protocol: messages, our agent, agent processes, the referee and
outside agents as players (:mod:`.protocol`)."""
