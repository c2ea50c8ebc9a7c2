"""The post, series and site model, the loader that fills it, the tables of keys and generated pages, the files a site publishes."""
